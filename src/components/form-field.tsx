import { useId, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';

export interface FieldControlProps {
  id: string;
  'aria-invalid': boolean;
  'aria-describedby': string | undefined;
}

/** A labelled control with its hint and error, wired with aria-invalid and aria-describedby. */
export function FormField({
  label,
  error,
  hint,
  children,
  input,
  className,
}: {
  label: ReactNode;
  error?: string | undefined;
  hint?: ReactNode;
  /** The control; without it, an `<input>` with `input`'s props (a `register` result and more). */
  children?: (control: FieldControlProps) => ReactNode;
  input?: InputHTMLAttributes<HTMLInputElement> & { ref?: Ref<HTMLInputElement> };
  className?: string;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ');
  return (
    <div className={`field${error ? ' field-invalid' : ''}${className ? ` ${className}` : ''}`}>
      <label htmlFor={id}>{label}</label>
      {(children ?? ((control) => <input {...control} {...input} />))({
        id,
        'aria-invalid': Boolean(error),
        'aria-describedby': describedBy || undefined,
      })}
      {hint && (
        <p className="field-hint" id={hintId}>
          {hint}
        </p>
      )}
      {error && (
        <p className="field-error" id={errorId}>
          {error}
        </p>
      )}
    </div>
  );
}

/** A labelled checkbox with a hint; the label holds the box, the 44 px hit area on a phone. */
export function CheckboxField({
  label,
  hint,
  children,
}: {
  label: ReactNode;
  hint?: ReactNode;
  children: (control: { id: string; 'aria-describedby': string | undefined }) => ReactNode;
}) {
  const id = useId();
  return (
    <div className="field field-checkbox">
      <label className="check-label" htmlFor={id}>
        {children({ id, 'aria-describedby': hint ? `${id}-hint` : undefined })}
        {label}
      </label>
      {hint && (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
    </div>
  );
}

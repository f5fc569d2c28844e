import { useFieldArray, useWatch, type UseFormReturn } from 'react-hook-form';
import { CheckboxField, FormField } from '../../../components/form-field';
import { isOwnPhoto, type NewListingForm } from './listing-form-schemas';
import { TakePhoto } from './take-photo';

type Form = UseFormReturn<NewListingForm>;

const CARD_FIELDS: [keyof NewListingForm['card'], string, string?][] = [
  ['title', 'Card title'],
  ['player', 'Player'],
  ['year', 'Year'],
  ['set', 'Set'],
  ['variant', 'Variant'],
  ['grade', 'Grade'],
  ['category', 'Category', 'A sport or game; unrecognised values become non-sport.'],
];

/** Up to five photo addresses, each previewed once it reads as one, or a photo taken here. */
export function PhotoFields({ form }: { form: Form }) {
  const { register, control, setValue } = form;
  const errors = form.formState.errors;
  const images = useFieldArray({ control, name: 'images' });
  const imageValues = useWatch({ control, name: 'images' });
  return (
    <fieldset className="wide">
      <legend>Photos (up to 5 web links)</legend>
      {errors.images?.message && (
        <p className="field-error" role="alert">
          {errors.images.message}
        </p>
      )}
      {errors.images?.root?.message && (
        <p className="field-error" role="alert">
          {errors.images.root.message}
        </p>
      )}
      <ul className="image-list">
        {images.fields.map((field, index) => {
          const src = imageValues[index]?.src ?? '';
          const valid = /^https:\/\/\S+$/i.test(src) || isOwnPhoto(src);
          return (
            <li key={field.id}>
              <FormField
                label={`Photo ${index + 1} URL`}
                error={errors.images?.[index]?.src?.message}
                input={{
                  type: 'url',
                  placeholder: 'https://…/photo.jpg',
                  ...register(`images.${index}.src`),
                }}
              />
              {valid && (
                <img
                  className="preview"
                  src={src}
                  alt={`Preview of photo ${index + 1}`}
                  width={72}
                  height={72}
                />
              )}
              <button type="button" className="link-button" onClick={() => images.remove(index)}>
                Remove photo {index + 1}
              </button>
            </li>
          );
        })}
      </ul>
      {images.fields.length < 5 && (
        <button type="button" onClick={() => images.append({ src: '' })}>
          Add a photo
        </button>
      )}
      <TakePhoto
        disabled={imageValues.filter((image) => image.src !== '').length >= 5}
        onPhoto={(photo) => {
          // Into the first empty address, else a new one.
          const empty = imageValues.findIndex((image) => image.src === '');
          if (empty >= 0) {
            setValue(`images.${empty}.src`, photo.url, {
              shouldDirty: true,
              shouldValidate: true,
            });
          } else images.append({ src: photo.url });
        }}
      />
    </fieldset>
  );
}

/** The card's own details, sent for review when no grader knows the cert. */
export function CardDetailsFields({ form, certNotFound }: { form: Form; certNotFound: boolean }) {
  const { register, control } = form;
  const errors = form.formState.errors;
  const useCard = useWatch({ control, name: 'use_card' });
  return (
    <fieldset className="wide">
      <legend>Card details if the cert is not found</legend>
      {certNotFound && (
        <p className="banner banner-warn" role="status">
          The cert was not found. With these details (a title, the grader and at least one photo)
          the card is created for review instead.
        </p>
      )}
      <CheckboxField
        label="Send card details as a fallback"
        hint="Used only when the grader lookup cannot resolve the cert."
      >
        {(c) => <input type="checkbox" {...c} {...register('use_card')} />}
      </CheckboxField>
      {useCard && (
        <div className="form-grid">
          {CARD_FIELDS.map(([name, label, hint]) => (
            <FormField
              key={name}
              label={label}
              error={errors.card?.[name]?.message}
              hint={hint}
              input={{
                ...(name === 'year' && { inputMode: 'numeric' }),
                ...register(`card.${name}`),
              }}
            />
          ))}
        </div>
      )}
    </fieldset>
  );
}

export function FromInventory({
  itemId,
  error,
  onUseCert,
}: {
  itemId: string;
  error: string | undefined;
  onUseCert(): void;
}) {
  return (
    <div>
      <p>
        Listing the card <code>{itemId}</code> from your inventory.{' '}
        <button type="button" className="link-button" onClick={onUseCert}>
          Use a cert number instead
        </button>
      </p>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

import { useId, useState, type ChangeEvent } from 'react';
import { useUploadPhoto, type KeptPhoto } from '../../../api/photos/photo-api';
import { ErrorBanner } from '../../../components/error-banner';
import { downsizePhoto, PhotoNotReadError } from '../../../lib/downsize-photo';

/** A photo (≤ 2,000 px JPEG) kept by our server: the API takes photos only as addresses. */
export function TakePhoto({
  disabled,
  onPhoto,
}: {
  disabled: boolean;
  onPhoto(photo: KeptPhoto): void;
}) {
  const upload = useUploadPhoto();
  const [step, setStep] = useState<'idle' | 'resizing' | 'uploading'>('idle');
  const [problem, setProblem] = useState<string | null>(null);
  const [plain, setPlain] = useState(false);
  const inputId = useId();

  const chosen = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // The same photo may be chosen again after a failure.
    event.target.value = '';
    if (!file) return;
    setProblem(null);
    setStep('resizing');
    try {
      const jpeg = await downsizePhoto(file);
      setStep('uploading');
      const photo = await upload.mutateAsync(jpeg);
      setPlain(!photo.https);
      onPhoto(photo);
    } catch (error) {
      if (error instanceof PhotoNotReadError) setProblem(error.message);
    } finally {
      setStep('idle');
    }
  };

  const busy = step !== 'idle';
  return (
    <div className="take-photo">
      <label htmlFor={inputId} className="take-photo-label">
        Take a photo
      </label>
      <input
        id={inputId}
        type="file"
        accept="image/*"
        capture="environment"
        disabled={disabled || busy}
        onChange={(event) => void chosen(event)}
      />
      {busy && (
        <p className="muted" role="status">
          {step === 'resizing' ? 'Preparing the photo…' : 'Uploading the photo…'}
        </p>
      )}
      {problem && (
        <p className="field-error" role="alert">
          {problem}
        </p>
      )}
      {upload.error && !busy && (
        <ErrorBanner error={upload.error} title="The photo was not uploaded" />
      )}
      {plain && (
        <p className="banner banner-warn">
          This photo&apos;s address is not https, and the marketplace downloads photos only over
          https: it will refuse it unless this server has a public https address
          (SLABDESK_PUBLIC_URL).
        </p>
      )}
    </div>
  );
}

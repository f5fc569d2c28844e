import { useMutation } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { useApiClient } from '../api-context';
import { callServer } from '../server-call';

/** A new listing's photo kept by our server (`POST /hub/photos`): the API takes only URLs. */

const KeptPhoto = z.object({
  url: z.string(),
  type: z.string(),
  bytes: z.number(),
  /** Whether the address is https: the marketplace refuses any other. */
  https: z.boolean(),
});
export type KeptPhoto = z.infer<typeof KeptPhoto>;

export function useUploadPhoto() {
  const client = useApiClient();
  return useMutation({
    mutationFn: (photo: Blob) =>
      callServer(client, z.object({ photo: KeptPhoto }), '/hub/photos', {
        method: 'POST',
        body: photo,
      }).then((answer) => answer.photo),
  });
}

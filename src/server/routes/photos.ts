import { createReadStream } from 'node:fs';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { refuse } from '../error-envelope';
import { MAX_PHOTO_BYTES, PHOTO_MIME, PhotoStore, sniffPhoto } from '../photos/photo-store';

const PHOTOS = '/hub/photos';

/** A photo's name: any text (the store reads only names it made; the rest are not found). */
const PhotoParams = z.object({ name: z.string() });

/**
 * A photo from the phone for a new listing: `POST /hub/photos` (editors; the raw bytes) keeps it
 * in `path` (`:memory:`: a folder of this run), `GET /hub/photos/<id>.jpg` serves it to anyone (the
 * marketplace downloads it), unguessable; its URL is on `publicUrl`, else the request's origin.
 */
export const photoRoutes: FastifyPluginAsyncZod<{
  path: string;
  publicUrl: string | undefined;
}> = async (app, deps) => {
  const store = new PhotoStore(deps.path);
  app.addHook('onClose', () => store.close());
  // Only this plugin's routes read a body as bytes, whatever its type says: the bytes decide.
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_r, body, done) => done(null, body));

  app.post(
    PHOTOS,
    { bodyLimit: MAX_PHOTO_BYTES, config: { access: 'editor', action: 'add photos' } },
    async (request, reply) => {
      const body = request.body;
      if (!Buffer.isBuffer(body) || body.byteLength === 0) {
        return refuse(reply, 422, 'validation_error', 'Send the photo itself (JPEG, PNG or WEBP).');
      }
      const type = sniffPhoto(body);
      if (!type) {
        const words = 'This file is not a JPEG, PNG or WEBP photo.';
        return refuse(reply, 415, 'unsupported_media_type', words);
      }
      const kept = store.keep(body, type);
      if (!kept) {
        const words = 'The server keeps no more photos: it holds its most.';
        return refuse(reply, 507, 'photos_full', words);
      }
      const origin = deps.publicUrl
        ? new URL(deps.publicUrl).origin
        : `${request.protocol}://${request.host}`;
      const url = `${origin}${PHOTOS}/${kept.name}`;
      const photo = {
        url,
        type: PHOTO_MIME[type],
        bytes: kept.bytes,
        https: url.startsWith('https:'),
      };
      return reply.code(201).header('cache-control', 'no-store').send({ photo });
    },
  );

  app.get(
    '/hub/photos/:name',
    // Public: the marketplace downloads it with no session (the name is the secret).
    { config: { access: 'public' }, schema: { params: PhotoParams } },
    async (request, reply) => {
      const photo = store.find(request.params.name);
      if (!photo) return refuse(reply, 404, 'not_found', 'No such photo.');
      return reply
        .type(PHOTO_MIME[photo.type])
        .header('content-length', photo.bytes)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        .send(createReadStream(photo.path));
    },
  );
};

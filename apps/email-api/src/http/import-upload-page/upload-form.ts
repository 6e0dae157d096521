import { Busboy, BusboyHeaders } from '@fastify/busboy';
import type { IncomingHttpHeaders } from 'node:http';
import { Readable } from 'node:stream';

/** The page's plain form, read up to its file: the CSRF token, then the file's name and its bytes, still unread. */
export interface UploadForm {
  csrfToken?: string;
  file?: { name: string; stream: Readable };
}

/**
 * Reads the plain form's post (`multipart/form-data`) up to the file part, which is handed on as a stream, to be
 * stored as the script's raw post is. The hidden token field comes before the file in the form, so it is known before
 * a byte of the file is stored. Parts past the one file and its token are ignored.
 */
export function readUploadForm(headers: IncomingHttpHeaders, body: Readable): Promise<UploadForm> {
  return new Promise((resolve, reject) => {
    const form: UploadForm = {};
    const parser = Busboy({ headers: headers as BusboyHeaders, limits: { fields: 1, fieldSize: 256, files: 1, parts: 2 } });
    parser.on('field', (name, value) => {
      if (name === 'csrf_token') form.csrfToken = value;
    });
    let file: Readable | undefined;
    parser.on('file', (_name, stream, fileName) => {
      file = stream;
      resolve({ ...form, file: { name: fileName, stream } });
    });
    parser.on('finish', () => resolve(form));
    parser.on('error', reject);
    // A piped body that breaks off never ends the parser, so the file's reader would wait for ever: it fails instead.
    body.once('close', () => {
      if (!body.readableEnded) file?.destroy(new Error('The upload was interrupted.'));
    });
    body.pipe(parser);
  });
}

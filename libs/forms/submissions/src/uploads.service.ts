import { Inject, Injectable } from '@nestjs/common';
import type { Readable } from 'node:stream';
import { FormsErrors } from '@forms/contracts';
import { UploadedFile } from '@forms/draft-schema';
import { PublishedForm } from '@forms/forms';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { IdGenerator, WorkspaceContext } from '@shared/core';
import { isStorableText } from '@shared/errors';
import { SubmissionsRepository } from './submissions.repository';
import { fileTooLarge, UploadStorage } from './upload-storage';

/** Largest file any file_upload field may accept; each field can set a lower limit. */
export const MAX_UPLOAD_BYTES = 25 * 1024 * 1024;

// Control characters cannot be shown safely in a file name, and text-direction overrides make one look like another
// ("invoice\u202Efdp.exe" shows as "invoiceexe.pdf").
// eslint-disable-next-line no-control-regex -- matching them is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** Where the form's team downloads an upload (with a key holding submissions:read); never a public address. */
export const uploadDownloadUrl = (config: AppConfig, formId: string, uploadId: string) =>
  `${config.formsPublicBaseUrl}/api/v1/forms/${formId}/uploads/${uploadId}`;

/** Files respondents upload before submitting; a file answer then refers to the upload by id. */
@Injectable()
export class UploadsService {
  constructor(
    private readonly repository: SubmissionsRepository,
    private readonly ids: IdGenerator,
    private readonly storage: UploadStorage,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Checks everything that does not need the bytes first, then streams them to storage (refused past
   * MAX_UPLOAD_BYTES while they arrive) and records the upload. A refused upload leaves no file and no row.
   */
  async upload(form: PublishedForm, file: IncomingFile): Promise<UploadedFile> {
    const fields = form.schema?.steps.flatMap((step) => step.fields).filter((field) => field.type === 'file_upload') ?? [];
    if (!form.schema || form.status !== 'published') throw notAccepting();
    if (!fields.length) throw FormsErrors.invalid('no_file_field', 'This form has no file upload question.', 'body');
    const fileName = file.fileName.trim();
    if (!fileName) throw FormsErrors.invalid('validation_failed', 'Name the file in the x-file-name header.', 'x-file-name');
    if (fileName.length > 255 || CONTROL_CHARACTERS.test(fileName) || !isStorableText(fileName)) {
      throw FormsErrors.invalid(
        'invalid_file_name',
        'The file name must be at most 255 characters, without control or text-direction characters.',
        'x-file-name',
      );
    }
    if (file.declaredBytes !== undefined && file.declaredBytes > MAX_UPLOAD_BYTES) throw fileTooLarge(MAX_UPLOAD_BYTES);
    if (file.declaredBytes === 0) throw emptyFile();

    const id = this.ids.newId('upl');
    const storageKey = `${form.formId}/${id}`;
    const stored = await this.storage.write(storageKey, file.body, MAX_UPLOAD_BYTES);
    try {
      if (!stored.size) throw emptyFile();
      const recorded = await this.repository.createUpload(form.workspaceId, {
        id,
        formId: form.formId,
        fileName,
        mimeType: file.mimeType,
        storageKey,
        ...stored,
      });
      if (!recorded) throw notAccepting();
    } catch (error) {
      await this.storage.remove(storageKey);
      throw error;
    }
    return { id, fileName, mimeType: file.mimeType, size: stored.size, url: uploadDownloadUrl(this.config, form.formId, id) };
  }

  /** An upload of the form with its bytes (from storage, or from the database for uploads made before storage). */
  async open(workspace: WorkspaceContext, formId: string, uploadId: string): Promise<{ fileName: string; mimeType: string; body: Readable | Buffer } | null> {
    const upload = await this.repository.findUpload(workspace.workspaceId, formId, uploadId);
    if (!upload) return null;
    const body = upload.storage_key ? await this.storage.read(upload.storage_key) : upload.data && Buffer.from(upload.data);
    return body && { fileName: upload.file_name, mimeType: upload.mime_type, body };
  }
}

/** An upload as it arrives: the headers that describe it and the body, not read yet. */
export interface IncomingFile {
  fileName: string;
  mimeType: string;
  /** Content-Length, when the client sent one. */
  declaredBytes?: number;
  body: Readable;
}

const notAccepting = () => FormsErrors.fail('form_not_accepting', 'This form does not accept uploads right now.');
const emptyFile = () => FormsErrors.invalid('empty_file', 'The uploaded file is empty.', 'body');

import { Inject, Injectable } from '@nestjs/common';
import { UploadedFile } from '@forms/draft-schema';
import { PublishedForm } from '@forms/forms';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { IdGenerator } from '@shared/core';
import { DomainError, InvalidRequest, isStorableText } from '@shared/errors';
import { SubmissionsRepository } from './submissions.repository';

/** Largest file any file_upload field may accept; each field can set a lower limit. */
export const MAX_UPLOAD_BYTES = 25 * 1024 * 1024;

// Control characters cannot be shown safely in a file name.
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

/** Where the form's team downloads an upload (with a key holding submissions:read); never a public address. */
export const uploadDownloadUrl = (config: AppConfig, formId: string, uploadId: string) =>
  `${config.formsPublicBaseUrl}/api/v1/forms/${formId}/uploads/${uploadId}`;

/** Files respondents upload before submitting; a file answer then refers to the upload by id. */
@Injectable()
export class UploadsService {
  constructor(
    private readonly repository: SubmissionsRepository,
    private readonly ids: IdGenerator,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async upload(form: PublishedForm, file: { fileName: string; mimeType: string; data: Buffer }): Promise<UploadedFile> {
    const fields = form.schema?.steps.flatMap((step) => step.fields).filter((field) => field.type === 'file_upload') ?? [];
    if (!form.schema || form.status !== 'published') throw new DomainError('permission_error', 'form_not_accepting', 'This form does not accept uploads right now.');
    if (!fields.length) throw InvalidRequest('no_file_field', 'This form has no file upload question.', 'body');
    if (!file.data.length) throw InvalidRequest('empty_file', 'The uploaded file is empty.', 'body');
    const fileName = file.fileName.trim();
    if (!fileName) throw InvalidRequest('validation_failed', 'Name the file in the x-file-name header.', 'x-file-name');
    if (fileName.length > 255 || CONTROL_CHARACTERS.test(fileName) || !isStorableText(fileName)) {
      throw InvalidRequest('invalid_file_name', 'The file name must be at most 255 characters, without control characters.', 'x-file-name');
    }
    const id = this.ids.newId('upl');
    await this.repository.createUpload({ id, formId: form.formId, fileName, mimeType: file.mimeType, data: file.data });
    return { id, fileName, mimeType: file.mimeType, size: file.data.length, url: uploadDownloadUrl(this.config, form.formId, id) };
  }

  find(formId: string, uploadId: string) {
    return this.repository.findUpload(formId, uploadId);
  }
}

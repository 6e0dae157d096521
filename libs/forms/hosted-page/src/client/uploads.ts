/// <reference lib="dom" />
import type { FileUploadField, UploadedFile } from '@forms/draft-schema';

/** Uploads a field's chosen files one request each; rejects with a message fit to show under the field. */
export async function uploadFiles(field: FileUploadField, files: File[], uploadUrl: string, list: HTMLElement): Promise<UploadedFile[]> {
  if (files.length > field.maxFiles) throw new Error(`Choose at most ${field.maxFiles} ${field.maxFiles === 1 ? 'file' : 'files'}.`);
  const tooLarge = files.find((file) => file.size > field.maxSizeMb * 1024 * 1024);
  if (tooLarge) throw new Error(`${tooLarge.name} is larger than ${field.maxSizeMb} MB.`);
  list.replaceChildren(...files.map((file) => listItem(`${file.name}: uploading…`)));
  const uploaded = await Promise.all(files.map((file) => uploadFile(file, uploadUrl)));
  list.replaceChildren(...uploaded.map((file) => listItem(`${file.fileName}: uploaded`)));
  return uploaded;
}

/** Raw bytes as octet-stream (the only body type the upload route parses); the real type travels in `x-file-type`. */
async function uploadFile(file: File, uploadUrl: string): Promise<UploadedFile> {
  const response = await fetch(uploadUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/octet-stream',
      'x-file-name': encodeURIComponent(file.name),
      'x-file-type': file.type || 'application/octet-stream',
    },
    body: file,
  });
  const body = (await response.json().catch(() => null)) as (Partial<UploadedFile> & { error?: { message?: string } }) | null;
  if (!response.ok) throw new Error(body?.error?.message ?? `${file.name} could not be uploaded.`);
  return body as UploadedFile;
}

function listItem(text: string): HTMLLIElement {
  const item = document.createElement('li');
  item.textContent = text;
  return item;
}

import { escapeHtml } from '@shared/core';
import { byteLimitText } from '@email/jobs';
import { csrfField, HtmlPage } from '@shared/browser-session';
import { STYLE as BASE_STYLE } from '../connection-setup/setup-pages';

const STYLE = `${BASE_STYLE}
.drop{display:block;font-weight:400;margin:1.25rem 0 0;padding:2rem 1rem;border:2px dashed #8c959f;border-radius:10px;text-align:center;cursor:pointer;color:#424a53}
.drop:focus-within,.drop[data-over]{border-color:#0969da;background:#ddf4ff}
.drop strong{display:block;font-size:1.05rem;color:#1f2328;margin-bottom:.25rem}
.drop input{display:block;width:auto;max-width:100%;margin:.9rem auto 0;padding:.4rem;font-size:.95rem;background:#fff}
form:not([data-js]) .drop{cursor:auto}
form[data-js] .drop input{position:absolute;width:1px;height:1px;opacity:0}
form[data-js] [data-when=no-js],form:not([data-js]) [data-when=js],form:not([data-js]) .status,form[data-js] button{display:none}
progress{display:block;width:100%;height:.75rem;margin:1rem 0 .25rem;accent-color:#1f883d}
[hidden]{display:none!important}
.columns{display:flex;flex-wrap:wrap;gap:.4rem;list-style:none;padding:0;margin:.5rem 0 1rem}
.columns li{padding:.2rem .55rem;background:#f6f8fa;border:1px solid #d0d7de;border-radius:999px;font-size:.875rem;overflow-wrap:anywhere}`;

/**
 * The page works as a plain form (the file and the CSRF token posted as multipart/form-data, the result a page). With
 * the script, the form turns into a drop zone that sends the chosen file as the raw request body (streamed by the
 * browser, never read into the page), with the CSRF token in a header, and shows the upload's progress, then the
 * detected columns and row count, or why it was refused.
 * Files that are plainly wrong (not .csv/.tsv/.txt, empty, over the limit) are refused before anything is sent.
 */
const SCRIPT = `
(function () {
  var form = document.getElementById('upload');
  var input = document.getElementById('file');
  var drop = document.getElementById('drop');
  var bar = document.getElementById('progress');
  var status = document.getElementById('status');
  var error = document.getElementById('error');
  var result = document.getElementById('result');
  var maxBytes = Number(form.getAttribute('data-max-bytes'));
  var busy = false;
  form.setAttribute('data-js', '');
  function fail(message) {
    busy = false;
    bar.hidden = true;
    status.textContent = '';
    error.textContent = message;
    error.hidden = false;
    drop.hidden = false;
  }
  function size(bytes) { return bytes < 1048576 ? Math.ceil(bytes / 1024) + ' KB' : (bytes / 1048576).toFixed(bytes < 10485760 ? 1 : 0) + ' MB'; }
  function show(data) {
    form.hidden = true;
    document.getElementById('heading').textContent = 'Your file is uploaded';
    document.getElementById('intro').hidden = true;
    document.getElementById('link-note').hidden = true;
    document.getElementById('result-name').textContent = data.file_name;
    document.getElementById('result-rows').textContent = data.row_count.toLocaleString('en-US') + (data.row_count === 1 ? ' row' : ' rows');
    var list = document.getElementById('result-columns');
    data.headers.forEach(function (header) {
      var item = document.createElement('li');
      item.textContent = header === '' ? '(unnamed)' : header;
      list.appendChild(item);
    });
    result.hidden = false;
  }
  function send(file) {
    if (busy || !file) return;
    error.hidden = true;
    if (!/\\.(csv|tsv|txt)$/i.test(file.name)) return fail('“' + file.name + '” is not a CSV file. Choose a .csv file (a .tsv or .txt export works too).');
    if (file.size === 0) return fail('“' + file.name + '” is empty. Choose a CSV file with a header row.');
    if (file.size > maxBytes) return fail('“' + file.name + '” is ' + size(file.size) + '; the most an import accepts is ' + size(maxBytes) + '.');
    busy = true;
    drop.hidden = true;
    bar.hidden = false;
    bar.value = 0;
    status.textContent = 'Uploading ' + file.name + '…';
    var request = new XMLHttpRequest();
    request.open('POST', window.location.pathname);
    request.setRequestHeader('content-type', 'application/octet-stream');
    request.setRequestHeader('x-csrf-token', form.elements.csrf_token.value);
    request.setRequestHeader('x-file-name', encodeURIComponent(file.name));
    request.upload.onprogress = function (event) {
      if (!event.lengthComputable) return;
      bar.value = event.loaded / event.total;
      status.textContent = 'Uploading ' + file.name + '… ' + Math.floor((100 * event.loaded) / event.total) + '%';
      if (event.loaded === event.total) status.textContent = 'Reading the columns of ' + file.name + '…';
    };
    request.onload = function () {
      var body = null;
      try { body = JSON.parse(request.responseText); } catch (e) { body = null; }
      if (request.status === 200 && body) return show(body);
      fail(body && body.error ? body.error.message : 'The upload failed (' + request.status + '). Try again.');
    };
    request.onerror = function () { fail('The upload was interrupted. Check your connection and try again.'); };
    request.send(file);
  }
  input.addEventListener('change', function () { send(input.files[0]); });
  drop.addEventListener('dragover', function (event) { event.preventDefault(); drop.setAttribute('data-over', ''); });
  drop.addEventListener('dragleave', function () { drop.removeAttribute('data-over'); });
  drop.addEventListener('drop', function (event) {
    event.preventDefault();
    drop.removeAttribute('data-over');
    send(event.dataTransfer.files[0]);
  });
})();
`.trim();

const columnList = (headers: string[]) => headers.map((header) => `<li>${header === '' ? '(unnamed)' : escapeHtml(header)}</li>`).join('');
const rowCount = (rows: number) => `${rows.toLocaleString('en-US')} ${rows === 1 ? 'row' : 'rows'}`;

/** The form; `error` is why the last file was refused, when the plain form posted one. */
export function uploadFormPage(view: { maxBytes: number; linkExpiresAt: Date }, csrfToken: string, error?: string): HtmlPage {
  return {
    title: 'Import subscribers',
    style: STYLE,
    script: SCRIPT,
    connectSelf: true,
    body: `<p class="eyebrow">Subscriber import</p>
<h1 id="heading">Choose the CSV file to import</h1>
<p id="intro">The first row must name the columns. Commas, semicolons or tabs, UTF-8 or Excel’s UTF-16 exports all work. You map the columns to subscriber fields afterwards; nothing is imported yet.</p>
<form id="upload" method="post" enctype="multipart/form-data" data-max-bytes="${view.maxBytes}">
${csrfField(csrfToken)}
<div class="alert alert-error" id="error" role="alert"${error ? `>${escapeHtml(error)}` : ' hidden>'}</div>
<label class="drop" id="drop"><strong><span data-when="js">Drop a CSV file here</span><span data-when="no-js">Choose a CSV file</span></strong><span data-when="js">or click to choose one </span>(up to ${byteLimitText(view.maxBytes)})<input type="file" id="file" name="file" accept=".csv,.tsv,.txt,text/csv,text/plain" required></label>
<button type="submit">Upload</button>
<progress id="progress" max="1" value="0" hidden></progress>
<p class="status" id="status" role="status" aria-live="polite"></p>
</form>
<div id="result" hidden>
<div class="alert alert-ok" role="status"><strong>Uploaded <span id="result-name"></span></strong><p><span id="result-rows"></span> found. You can close this page and finish the import.</p></div>
<h2>Columns</h2>
<ul class="columns" id="result-columns"></ul>
</div>
<p class="muted" id="link-note">This link works for one file and until ${view.linkExpiresAt.toISOString().slice(11, 16)} UTC. The file is deleted after a day.</p>`,
  };
}

/** What the plain form shows once the file is stored: the script fills the same block in place. */
export function uploadDonePage(file: { file_name: string; headers: string[]; row_count: number }): HtmlPage {
  return {
    title: 'File uploaded',
    style: STYLE,
    body: `<p class="eyebrow">Subscriber import</p>
<h1>Your file is uploaded</h1>
<div class="alert alert-ok" role="status"><strong>Uploaded ${escapeHtml(file.file_name)}</strong><p>${rowCount(file.row_count)} found. You can close this page and finish the import.</p></div>
<h2>Columns</h2>
<ul class="columns">${columnList(file.headers)}</ul>`,
  };
}

const CLOSED = {
  invalid: { title: 'This link is not valid', text: 'The upload link may have been copied incompletely. Use the full link you were given.' },
  expired: { title: 'This upload link expired', text: 'Upload links work for 30 minutes. Start a new upload to get a new link.' },
  used: { title: 'This link was already used', text: 'A file was uploaded through it. Start a new upload to import another file.' },
} as const;

export function uploadClosedPage(state: keyof typeof CLOSED): HtmlPage {
  const { title, text } = CLOSED[state];
  return { title, style: STYLE, body: `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(text)}</p>` };
}

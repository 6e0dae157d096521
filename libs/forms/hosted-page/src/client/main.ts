/// <reference lib="dom" />
/*
 * The hosted form page script: validates each step, routes with @forms/runtime exactly as the server replays the run,
 * uploads files, submits and shows the ending screen the server picks. Bundled by `hostedFormScript()`.
 */
import { DEFAULT_THANK_YOU_SCREEN_ID, coerceAnswer, type DraftSchema, type Field, type FileUploadField, type UploadedFile } from '@forms/draft-schema';
import { advance, answersOnSteps, createRunState, hasRequiredAnswer, paymentAmount, type Answers, type RunState } from '@forms/runtime';
import { PAGE_IDS, screenSectionId, stepHeadingId, stepSectionId } from '../ids';
import { formatMoney } from '../money';
import { SHARE_NETWORKS } from '../share';
import { all, byId, focusTarget, setFieldError } from './dom';
import { collectPayment } from './payment';
import { showProgress } from './progress';
import { moveRankingItem } from './ranking';
import { setUpSignature } from './signature';
import { postSubmission, randomId } from './submit';
import { uploadFiles } from './uploads';
import { rawValue } from './values';

const NO_ANSWER_FIELDS: Field['type'][] = ['hidden', 'statement', 'payment'];

function start(): void {
  const schema = JSON.parse(byId(PAGE_IDS.schema).textContent ?? '') as DraftSchema;
  const form = byId<HTMLFormElement>(PAGE_IDS.form);
  const buttons = { back: byId(PAGE_IDS.back), next: byId(PAGE_IDS.next), submit: byId<HTMLButtonElement>(PAGE_IDS.submit) };
  const formError = byId(PAGE_IDS.formError);
  const containers = new Map(all(form, '[data-field]').map((element) => [element.dataset.field ?? '', element]));
  const fields = new Map(schema.steps.flatMap((step) => step.fields).map((field) => [field.id, field]));
  const hiddenValues = queryHiddenValues(schema);
  const analyticsSessionId = randomId();
  const answers: Answers = {};
  const uploads: Record<string, UploadedFile[]> = {};
  const pendingUploads = new Map<string, Promise<unknown>>();
  // Each payment field's started order (its amount, and whether the server verified it paid).
  const payments: Record<string, { paymentId: string; amount: number; paid: boolean }> = {};
  let paying = false;
  // The steps taken so far (the last is on screen) and the run state on entering each: Back pops both.
  const visited = [schema.steps[0]?.id ?? ''];
  const states: RunState[] = [createRunState(schema, hiddenValues)];

  const current = () => visited[visited.length - 1];
  const stepFields = (stepId: string) => schema.steps.find((step) => step.id === stepId)?.fields ?? [];
  const transition = () => advance(schema, states[states.length - 1], answers, visited);
  const announce = (message: string) => (byId(PAGE_IDS.announcer).textContent = message);
  let busy = false;

  /** Reads the step's controls into `answers`; with `report`, shows messages and focuses the first invalid field. */
  function collect(stepId: string, report: boolean): boolean {
    const invalid: HTMLElement[] = [];
    for (const field of stepFields(stepId)) {
      const container = containers.get(field.id);
      if (container && field.type === 'payment' && field.required && amountDue(field.id) > 0 && !payments[field.id]?.paid) {
        invalid.push(container);
        if (report) setFieldError(container, field.id, 'Please complete the payment to continue.');
      }
      if (!container || NO_ANSWER_FIELDS.includes(field.type)) continue;
      const result = coerceAnswer(field, rawValue(field, container, uploads));
      if (result.ok && result.value !== undefined) answers[field.id] = result.value;
      else delete answers[field.id];
      const message = !result.ok ? result.message : field.required && !hasRequiredAnswer(field, result.value) ? requiredMessage(field) : null;
      if (message) invalid.push(container);
      if (report) setFieldError(container, field.id, message);
    }
    if (report && invalid.length > 0) focusTarget(invalid[0])?.focus();
    return invalid.length === 0;
  }

  /** The amount the payment field's display shows (the server prices the order itself). */
  function amountDue(fieldId: string): number {
    const field = fields.get(fieldId);
    const digits = Number(containers.get(fieldId)?.querySelector<HTMLElement>('.payment-amount')?.dataset.minorDigits ?? 2);
    return field?.type === 'payment' ? paymentAmount(field, states[states.length - 1], answers, digits) : 0;
  }

  async function pay(button: HTMLButtonElement): Promise<void> {
    const field = fields.get(button.dataset.pay ?? '');
    const container = field && containers.get(field.id);
    const status = container?.querySelector<HTMLElement>('.payment-status');
    const mount = container?.querySelector<HTMLElement>('.payment-checkout');
    if (paying || field?.type !== 'payment' || !container || !status || !mount) return;
    paying = true;
    button.disabled = true;
    status.textContent = 'Opening the secure payment…';
    setFieldError(container, field.id, null);
    const provider = field.provider ?? 'stripe';
    const outcome = await collectPayment({
      baseUrl: (form.dataset.submitUrl ?? '').replace(/\/submissions$/, `/payments/${provider}`),
      provider,
      fieldId: field.id,
      answers: { values: answersOnSteps(schema, visited, answers), hiddenValues },
      mount,
      confirmButton: button,
      status,
      title: document.title,
    });
    paying = false;
    button.disabled = false;
    if (outcome.paymentId) payments[field.id] = { paymentId: outcome.paymentId, amount: outcome.amount ?? 0, paid: outcome.status === 'paid' };
    if (outcome.status === 'paid') {
      container.dataset.paid = 'true';
      button.hidden = true;
      mount.hidden = true;
      status.textContent = 'Payment received. Thank you!';
    } else {
      status.textContent = outcome.message;
    }
    announce(status.textContent);
  }

  /** The started payments of payment fields on the steps taken, for the submission (nothing when there are none). */
  function paymentIds(): { payments?: Record<string, string> } {
    const onPath = new Set(visited.flatMap((stepId) => stepFields(stepId).map((field) => field.id)));
    const started = Object.entries(payments).flatMap(([fieldId, payment]): [string, string][] => (onPath.has(fieldId) ? [[fieldId, payment.paymentId]] : []));
    return started.length ? { payments: Object.fromEntries(started) } : {};
  }

  function refresh(): void {
    const endsHere = transition().next.type !== 'step';
    buttons.back.hidden = visited.length === 1;
    buttons.next.hidden = endsHere;
    buttons.submit.hidden = !endsHere;
    for (const field of stepFields(current())) {
      if (field.type !== 'payment') continue;
      const amount = containers.get(field.id)?.querySelector<HTMLElement>('.payment-amount');
      if (amount) amount.textContent = formatMoney(amountDue(field.id), field.currency, Number(amount.dataset.minorDigits ?? 2));
    }
  }

  function update(): void {
    collect(current(), false);
    refresh();
  }

  /** Shows a step; moving forward or back it slides in (CSS, unless reduced motion) and takes the focus. */
  function show(stepId: string, move: 'forward' | 'back' | null): void {
    for (const section of all(form, 'section[data-step]')) {
      section.hidden = section.id !== stepSectionId(stepId);
      if (!section.hidden && move) section.dataset.enter = move;
    }
    formError.textContent = '';
    refresh();
    const position = showProgress(schema, stepId);
    if (!move) return;
    announce([position, byId(stepHeadingId(stepId)).textContent].filter(Boolean).join(': '));
    focusFirstField(stepId);
  }

  /** The step's first control (so typing can go on), or its heading when it has none. */
  function focusFirstField(stepId: string): void {
    const first = stepFields(stepId)
      .map((field) => containers.get(field.id))
      .map((container) => container && focusTarget(container))
      .find((control) => control);
    (first ?? byId(stepHeadingId(stepId))).focus();
  }

  async function goForward(): Promise<void> {
    if (busy) return;
    busy = true;
    try {
      await Promise.all(pendingUploads.values());
      if (!collect(current(), true)) return;
      const { next, state } = transition();
      if (next.type !== 'step') return await submit();
      visited.push(next.stepId);
      states.push(state);
      show(next.stepId, 'forward');
    } finally {
      busy = false;
    }
  }

  function goBack(): void {
    if (visited.length === 1) return;
    visited.pop();
    states.pop();
    show(current(), 'back');
  }

  async function submit(): Promise<void> {
    buttons.submit.disabled = true;
    const outcome = await postSubmission(form.dataset.submitUrl ?? '', {
      values: answersOnSteps(schema, visited, answers),
      hiddenValues,
      completedStepIds: [...visited],
      analyticsSessionId,
      ...paymentIds(),
    });
    buttons.submit.disabled = false;
    if (outcome.ok) return finish(outcome.screenId, outcome.redirectTo);
    const index = outcome.fieldId ? visited.findIndex((stepId) => stepFields(stepId).some((field) => field.id === outcome.fieldId)) : -1;
    const container = outcome.fieldId ? containers.get(outcome.fieldId) : undefined;
    if (index < 0 || !outcome.fieldId || !container) {
      formError.textContent = outcome.message;
      return;
    }
    visited.length = index + 1;
    states.length = index + 1;
    show(current(), null);
    setFieldError(container, outcome.fieldId, outcome.message);
    focusTarget(container)?.focus();
  }

  function finish(screenId: string | null, redirectTo: string | null): void {
    if (redirectTo && /^https?:\/\//i.test(redirectTo)) {
      window.location.assign(redirectTo);
      return;
    }
    const screen = document.getElementById(screenSectionId(screenId ?? DEFAULT_THANK_YOU_SCREEN_ID)) ?? byId(screenSectionId(DEFAULT_THANK_YOU_SCREEN_ID));
    form.hidden = true;
    screen.hidden = false;
    screen.querySelector<HTMLElement>('h2')?.focus();
  }

  async function onFilesChosen(field: FileUploadField, input: HTMLInputElement, container: HTMLElement): Promise<void> {
    const list = container.querySelector<HTMLElement>('.upload-list');
    if (!list) return;
    uploads[field.id] = [];
    try {
      setFieldError(container, field.id, null);
      uploads[field.id] = await uploadFiles(field, Array.from(input.files ?? []), form.dataset.uploadUrl ?? '', list);
    } catch (error) {
      list.replaceChildren();
      setFieldError(container, field.id, error instanceof Error ? error.message : String(error));
    }
    update();
  }

  function onEdit(event: Event): void {
    const target = event.target as HTMLElement;
    const container = target.closest<HTMLElement>('[data-field]');
    const field = container && fields.get(container.dataset.field ?? '');
    if (!container || !field) return;
    if (target.classList.contains('other-text')) container.querySelector<HTMLInputElement>('input[data-other]')?.click();
    if (field.type === 'file_upload' && event.type === 'change') {
      const promise = onFilesChosen(field, target as HTMLInputElement, container);
      pendingUploads.set(field.id, promise);
      return;
    }
    setFieldError(container, field.id, null);
    update();
  }

  form.addEventListener('input', onEdit);
  form.addEventListener('change', onEdit);
  form.addEventListener('click', (event) => {
    const payButton = (event.target as HTMLElement).closest<HTMLButtonElement>('[data-pay]');
    if (payButton) void pay(payButton);
    const move = (event.target as HTMLElement).closest<HTMLElement>('[data-move]');
    if (!move) return;
    moveRankingItem(move, announce);
    update();
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void goForward();
  });
  // A drop zone lights up while a file is dragged over it (CSS sees no drag hover).
  for (const type of ['dragenter', 'dragleave', 'drop']) {
    form.addEventListener(type, (event) => (event.target as HTMLElement).closest('.dropzone')?.classList.toggle('dragging', type === 'dragenter'));
  }
  form.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && isAdvanceKey(event)) {
      event.preventDefault();
      void goForward();
    }
  });
  buttons.next.addEventListener('click', () => void goForward());
  buttons.back.addEventListener('click', goBack);
  for (const container of all(form, '[data-field]')) {
    if (fields.get(container.dataset.field ?? '')?.type === 'signature') setUpSignature(container, update);
  }
  const pageUrl = window.location.origin + window.location.pathname;
  for (const link of all<HTMLAnchorElement>(document, 'a[data-share]')) {
    const network = SHARE_NETWORKS.find((candidate) => candidate.key === link.dataset.share);
    if (network) link.href = network.shareUrl(pageUrl);
  }
  update();
}

/**
 * Enter advances from any answer, not only where the browser submits implicitly (text inputs): on a checkbox too, and
 * Ctrl/Cmd+Enter in a text area, where a plain Enter is a new line. Buttons and links keep their own Enter.
 */
function isAdvanceKey(event: KeyboardEvent): boolean {
  const target = event.target as HTMLElement;
  if (target instanceof HTMLTextAreaElement) return event.ctrlKey || event.metaKey;
  return target instanceof HTMLInputElement && (target.type === 'checkbox' || target.type === 'radio');
}

/**
 * `?<hidden field name>=value` for every hidden field the query string names (the server coerces types). A value its
 * field cannot take (not a number, too long) is left out: the server would refuse the whole submission over a value the
 * person cannot change.
 */
function queryHiddenValues(schema: DraftSchema): Record<string, string> {
  const query = new URLSearchParams(window.location.search);
  const values: Record<string, string> = {};
  for (const field of schema.steps.flatMap((step) => step.fields)) {
    const value = field.type === 'hidden' ? query.get(field.name) : null;
    if (field.type === 'hidden' && value !== null && coerceAnswer(field, value).ok) values[field.name] = value;
  }
  return values;
}

function requiredMessage(field: Field): string {
  if (field.type === 'checkbox') return 'Please check this box to continue.';
  if (field.type === 'file_upload') return 'Please upload a file.';
  return 'This field is required.';
}

start();

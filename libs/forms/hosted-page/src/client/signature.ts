/// <reference lib="dom" />

/** Drawing with a pointer on the field's canvas, and the clear button (which also empties the typed name). */
export function setUpSignature(container: HTMLElement, onChange: () => void): void {
  const canvas = container.querySelector('canvas');
  const context = canvas?.getContext('2d');
  if (!canvas || !context) return;
  context.lineWidth = 3;
  context.lineCap = 'round';
  context.strokeStyle = '#111';
  let drawing = false;
  const point = (event: PointerEvent): [number, number] => {
    const box = canvas.getBoundingClientRect();
    return [((event.clientX - box.left) * canvas.width) / box.width, ((event.clientY - box.top) * canvas.height) / box.height];
  };
  canvas.addEventListener('pointerdown', (event) => {
    drawing = true;
    canvas.setPointerCapture(event.pointerId);
    context.beginPath();
    context.moveTo(...point(event));
    container.dataset.drawn = 'true';
  });
  canvas.addEventListener('pointermove', (event) => {
    if (!drawing) return;
    context.lineTo(...point(event));
    context.stroke();
  });
  const stop = () => {
    if (drawing) onChange();
    drawing = false;
  };
  canvas.addEventListener('pointerup', stop);
  canvas.addEventListener('pointercancel', stop);
  container.querySelector('.signature-clear')?.addEventListener('click', () => {
    context.clearRect(0, 0, canvas.width, canvas.height);
    delete container.dataset.drawn;
    const typed = container.querySelector<HTMLInputElement>('.signature-name');
    if (typed) typed.value = '';
    onChange();
  });
}

/** The answer: the drawing as a PNG data URL, else the typed name written onto a canvas, else ''. */
export function signatureValue(container: HTMLElement): string {
  const canvas = container.querySelector('canvas');
  if (canvas && container.dataset.drawn) return canvas.toDataURL('image/png');
  const name = container.querySelector<HTMLInputElement>('.signature-name')?.value.trim() ?? '';
  if (!name) return '';
  const typed = document.createElement('canvas');
  typed.width = 600;
  typed.height = 200;
  const context = typed.getContext('2d');
  if (!context) return '';
  context.font = 'italic 48px cursive';
  context.fillStyle = '#111';
  context.fillText(name, 24, 120, 552);
  return typed.toDataURL('image/png');
}

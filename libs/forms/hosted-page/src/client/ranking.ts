/// <reference lib="dom" />

/** Moves a ranking item with its up/down button, keeps focus on that button and announces the new position. */
export function moveRankingItem(button: HTMLElement, announce: (message: string) => void): void {
  const item = button.closest('li');
  const list = item?.parentElement;
  if (!item || !list) return;
  const up = button.dataset.move === 'up';
  const sibling = up ? item.previousElementSibling : item.nextElementSibling;
  if (!sibling) return;
  list.insertBefore(item, up ? sibling : sibling.nextElementSibling);
  button.focus();
  const position = Array.from(list.children).indexOf(item) + 1;
  announce(`${item.querySelector('.rank-label')?.textContent ?? ''} moved to position ${position} of ${list.children.length}`);
}

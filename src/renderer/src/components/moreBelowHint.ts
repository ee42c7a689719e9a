/**
 * A ref callback for a scrolling box: while part of its content is hidden below, the box carries
 * `data-more-below`, which the stylesheet shows as a fade at its bottom edge (a shadow drawn behind opaque
 * cards would not show). Set on the element directly, so scrolling re-renders nothing.
 */
export function moreBelowHint(box: HTMLElement | null): (() => void) | undefined {
  if (!box) return undefined
  const update = () => {
    const hidden = box.scrollHeight - box.clientHeight - box.scrollTop > 4
    box.toggleAttribute('data-more-below', hidden)
  }
  update()
  box.addEventListener('scroll', update, { passive: true })
  const observer = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(update)
  observer?.observe(box)
  for (const child of Array.from(box.children)) observer?.observe(child)
  return () => {
    box.removeEventListener('scroll', update)
    observer?.disconnect()
  }
}

/** Characters of a mail's Markdown per `read` page. */
export const READ_PAGE_CHARS = 12_000

/** Cuts text into pages that end at a line break in the second half of a page when there is one. */
export function pageText(text: string, size = READ_PAGE_CHARS): string[] {
  const pages: string[] = []
  let rest = text
  while (rest.length > size) {
    const cut = rest.lastIndexOf('\n', size)
    const at = cut > size / 2 ? cut + 1 : size
    pages.push(rest.slice(0, at))
    rest = rest.slice(at)
  }
  pages.push(rest)
  return pages
}

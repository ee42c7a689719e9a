/** Collapses runs of blank lines and trailing spaces that HTML layout leaves behind. */
export function tidyMarkdown(markdown: string): string {
  return (
    markdown
      .replace(/[ \t]+$/gm, '')
      // The GFM plugin pads short cells to three characters; the padding only costs budget.
      .replace(/^\|.*\|$/gm, (row) => row.replace(/ {2,}\|/g, ' |'))
      .replace(/\n{3,}/g, '\n\n')
      .trim()
  )
}

/** Splits text into word chunks that keep their leading whitespace, so the chunks join back exactly. */
export function splitWords(text: string): string[] {
  return text.match(/\s*\S+|\s+/g) ?? []
}

/** Splits a string into pieces of `size` code points (never inside a surrogate pair). */
export function splitFragments(text: string, size = 8): string[] {
  const points = Array.from(text)
  const pieces: string[] = []
  for (let at = 0; at < points.length; at += size) pieces.push(points.slice(at, at + size).join(''))
  return pieces
}

/** Words that carry no meaning for matching (English and German, the languages of the fixtures). */
const STOPWORDS = new Set(
  (
    'a an and are as at be by for from has have i in is it its me my of on or our that the their this to ' +
    'was we what when where which who will with you your please can could would should do does did how ' +
    'der die das den dem des ein eine einen einem und oder ist sind ich mein meine wir unser für mit von ' +
    'zu im in am an auf bitte wie was wo wer'
  ).split(' '),
)

/** Lower-cased words and numbers with a light plural strip ("invoices" finds "invoice"). */
export function terms(text: string): string[] {
  const words =
    text
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  const out: string[] = []
  for (const word of words) {
    if (STOPWORDS.has(word)) continue
    out.push(stem(word))
  }
  return out
}

/** A light suffix strip: "saved", "saves" and "save" meet, "invoices" finds "invoice". */
function stem(word: string): string {
  let w = word
  if (w.length > 4 && w.endsWith('ies')) return `${w.slice(0, -3)}y`
  if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3)
  else if (w.length > 4 && w.endsWith('ed')) w = w.slice(0, -2)
  else if (w.length > 4 && /(?:ss|us|is)$/.test(w)) return w
  else if (w.length > 3 && w.endsWith('s')) w = w.slice(0, -1)
  if (w.length > 3 && w.endsWith('e')) w = w.slice(0, -1)
  return w
}

export interface Bm25Index {
  /** Documents with a score above zero, best first (ties: the earlier document first). */
  search(query: string): Array<{ index: number; score: number }>
}

const K1 = 1.2
const B = 0.75

/** Okapi BM25 over short texts, built in one pass; small enough that rebuilding after each change is cheap. */
export function bm25Index(texts: readonly string[]): Bm25Index {
  const postings = new Map<string, Array<{ doc: number; tf: number }>>()
  const lengths = new Float64Array(texts.length)
  let total = 0
  texts.forEach((text, doc) => {
    const words = terms(text)
    lengths[doc] = words.length
    total += words.length
    const tf = new Map<string, number>()
    for (const word of words) tf.set(word, (tf.get(word) ?? 0) + 1)
    for (const [word, n] of tf) {
      const list = postings.get(word)
      if (list) list.push({ doc, tf: n })
      else postings.set(word, [{ doc, tf: n }])
    }
  })
  const avgdl = texts.length > 0 ? total / texts.length || 1 : 1
  const n = texts.length
  return {
    search(query) {
      const scores = new Map<number, number>()
      for (const word of new Set(terms(query))) {
        const list = postings.get(word)
        if (!list) continue
        const idf = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5))
        for (const { doc, tf } of list) {
          const norm = tf + K1 * (1 - B + (B * (lengths[doc] ?? 0)) / avgdl)
          scores.set(doc, (scores.get(doc) ?? 0) + (idf * tf * (K1 + 1)) / norm)
        }
      }
      return [...scores]
        .map(([index, score]) => ({ index, score }))
        .sort((a, b) => b.score - a.score || a.index - b.index)
    },
  }
}

/** Words in lower case without punctuation: what a recognizer's output is compared on. */
export function words(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9' ]+/g, ' ')
    .split(/\s+/)
    .filter(Boolean)
}

/** Word error rate: (substitutions + deletions + insertions) / reference words, by edit distance. */
export function wordErrorRate(reference: string, hypothesis: string): number {
  const ref = words(reference)
  const hyp = words(hypothesis)
  if (ref.length === 0) return hyp.length === 0 ? 0 : 1
  let previous = Array.from({ length: hyp.length + 1 }, (_, j) => j)
  for (let i = 1; i <= ref.length; i++) {
    const current = [i]
    for (let j = 1; j <= hyp.length; j++) {
      const cost = ref[i - 1] === hyp[j - 1] ? 0 : 1
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost)
    }
    previous = current
  }
  return (previous[hyp.length] ?? 0) / ref.length
}

/** Short office sentences the voice tests and the benchmark speak and hear. */
export const VOICE_SENTENCES = [
  'Please open the quarterly report.',
  'The meeting starts at ten tomorrow morning.',
  'Send the invoice to the customer today.',
]

interface Speaker {
  readonly id: string
  synthesize(request: { text: string }): Promise<{ audio: Uint8Array }>
}
interface Hearer {
  transcribe(request: { pcm: Int16Array<ArrayBuffer>; language?: string }): Promise<{ text: string }>
}

/** Speaks each sentence, hears it back, prints each result and returns the WER over all words. */
export async function speakAndHear(
  speaker: Speaker,
  hearer: Hearer,
  sentences: string[],
  toPcm: (wav: Uint8Array) => Int16Array<ArrayBuffer>,
): Promise<number> {
  let errors = 0
  let total = 0
  for (const sentence of sentences) {
    const { audio } = await speaker.synthesize({ text: sentence })
    const heard = await hearer.transcribe({ pcm: toPcm(audio), language: 'en' })
    const wer = wordErrorRate(sentence, heard.text)
    console.log(`${speaker.id}: "${sentence}" → "${heard.text}" (WER ${(wer * 100).toFixed(0)}%)`)
    const count = words(sentence).length
    errors += wer * count
    total += count
  }
  const overall = errors / total
  console.log(`${speaker.id} → PocketSphinx: WER ${(overall * 100).toFixed(1)}% over ${total} words`)
  return overall
}

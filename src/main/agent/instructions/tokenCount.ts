/** Tokens of a text in o200k_base (GPT-4o's encoding): a fair estimate for any current model. */
export async function countTokens(text: string): Promise<number> {
  if (text === '') return 0
  const { countTokens: count } = await import('gpt-tokenizer/encoding/o200k_base')
  return count(text)
}

import { useState } from 'react'

const grouped = (n: number) => n.toLocaleString('en-US')

/**
 * A numeric text field's check before Save: a whole number from `min` to `max`, with the message
 * shown under the field until the next check passes.
 */
export function useWholeNumberCheck(text: string, min: number, max: number) {
  const [error, setError] = useState<string | undefined>()
  const validate = () => {
    const n = Number(text)
    const ok = text.trim() !== '' && Number.isInteger(n) && n >= min && n <= max
    setError(ok ? undefined : `Enter a whole number between ${grouped(min)} and ${grouped(max)}.`)
    return ok
  }
  return { error, validate }
}

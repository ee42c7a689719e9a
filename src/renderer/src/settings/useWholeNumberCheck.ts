import { useRef, useState } from 'react'

const grouped = (n: number) => n.toLocaleString('en-US')

/**
 * A numeric text field's check: a whole number from `min` to `max`. The message shows under the field
 * as soon as the text is changed (or Save checks it) and goes as soon as the text is right.
 */
export function useWholeNumberCheck(text: string, min: number, max: number) {
  const initial = useRef(text)
  const [checked, setChecked] = useState(false)
  const n = Number(text)
  const ok = text.trim() !== '' && Number.isInteger(n) && n >= min && n <= max
  const message = `Enter a whole number between ${grouped(min)} and ${grouped(max)}.`
  const error = !ok && (checked || text !== initial.current) ? message : undefined
  const validate = () => {
    setChecked(true)
    return ok
  }
  return { error, validate }
}

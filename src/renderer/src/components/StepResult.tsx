import { isAreaReceipt, isSettingsReceipt } from './areaReceipt'
import { EventCard, isCalendarReceipt } from './EventCard'
import { ReceiptTable } from './ReceiptTable'

const MAX_JSON = 4000

function json(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value, null, 2)
  return text.length > MAX_JSON
    ? `${text.slice(0, MAX_JSON)}\n… (${text.length - MAX_JSON} more characters)`
    : text
}

/** A step's output: an area receipt as a table, a settings receipt as a list, a calendar receipt as an event card, anything else as JSON. */
export function StepResult({ result }: { result: unknown }) {
  if (isAreaReceipt(result)) return <ReceiptTable receipt={result} />
  if (isCalendarReceipt(result)) return <EventCard receipt={result} />
  if (isSettingsReceipt(result))
    return (
      <p className="step-applied">
        Applied to {result.sheet}!{result.range}: {result.applied.join(', ')}
      </p>
    )
  if (result === undefined) return null
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling block must be reachable by keyboard
    <pre className="step-json" tabIndex={0}>
      {json(result)}
    </pre>
  )
}

export { json as formatStepJson }

import { Icon } from '../components/Icon'

export const EXAMPLE_REQUESTS = [
  'Summarize the attached Word document in five bullet points.',
  'Add a Total column to the attached spreadsheet and sum each row.',
  'Compare the two attached reports and list what changed as a table.',
] as const

/** A new conversation: what Bureau does and three requests to start from. */
export function EmptyState({ onPick }: { onPick(text: string): void }) {
  return (
    <div className="empty-state">
      <div className="empty-mark" aria-hidden="true">
        <Icon name="chat" size={28} />
      </div>
      <h2>What can I do for you?</h2>
      <p className="muted">
        Drop Word, Excel, PowerPoint or PDF files anywhere on this page and ask about them. Bureau edits files
        in your workspace and hands them back.
      </p>
      <ul className="examples" aria-label="Example requests">
        {EXAMPLE_REQUESTS.map((example) => (
          <li key={example}>
            <button type="button" className="example" onClick={() => onPick(example)}>
              {example}
            </button>
          </li>
        ))}
      </ul>
    </div>
  )
}

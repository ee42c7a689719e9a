import { type FormEvent, useState } from 'react'
import { Icon } from '../../components/Icon'
import type { PendingQuestion } from '../chatStore'

/** A subagent paused with a question; the answer goes back through chat.answer. */
export function QuestionPrompt({
  question,
  onAnswer,
}: {
  question: PendingQuestion
  onAnswer(text: string): Promise<boolean>
}) {
  const [text, setText] = useState('')
  const [busy, setBusy] = useState(false)
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (!text.trim()) return
    setBusy(true)
    if (await onAnswer(text.trim())) setText('')
    setBusy(false)
  }
  return (
    <form className="question" onSubmit={submit} aria-labelledby="question-title">
      <p id="question-title" className="question-title">
        <Icon name="question" size={16} /> The {question.toolset} helper asks
      </p>
      <p className="question-text">{question.question}</p>
      <div className="question-row">
        <input
          className="input"
          aria-label="Your answer"
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          // biome-ignore lint/a11y/noAutofocus: the run is waiting for exactly this answer
          autoFocus
        />
        <button type="submit" className="button" disabled={busy || !text.trim()}>
          Answer
        </button>
      </div>
    </form>
  )
}

import { Markdown } from '../components/Markdown'
import type { AnswerState } from './voiceSession'

function statusNote(answer: AnswerState): string | undefined {
  switch (answer.status) {
    case 'interrupted':
      return 'Interrupted — the rest was not spoken.'
    case 'cancelled':
      return 'Stopped.'
    case 'error':
      return answer.error ?? 'The answer failed.'
    default:
      return undefined
  }
}

/**
 * The streamed answer as its spoken sentences: the one being spoken is highlighted, what was spoken is
 * plain, what has not been spoken yet is muted (and after a barge-in, marked as not spoken). Code and
 * tables are shown, not read.
 */
export function AnswerView({ answer }: { answer: AnswerState }) {
  const note = statusNote(answer)
  const cut = answer.status === 'interrupted' || answer.status === 'cancelled'
  return (
    <section className="voice-answer" aria-label="Answer" data-status={answer.status}>
      <div className="voice-sentences" aria-live="polite">
        {answer.sentences.map((sentence) => {
          const speaking = sentence.index === answer.speakingIndex
          const spoken = sentence.index < answer.spokenCount
          const state = speaking ? 'speaking' : spoken ? 'spoken' : cut ? 'unspoken' : 'pending'
          if (sentence.kind !== 'text') {
            const source =
              sentence.kind === 'code'
                ? `\`\`\`${sentence.language ?? ''}\n${sentence.source ?? ''}\n\`\`\``
                : (sentence.source ?? '')
            return (
              <div
                key={sentence.index}
                className={`voice-block is-${state}`}
                data-testid="voice-sentence"
                data-state={state}
              >
                <Markdown text={source} />
              </div>
            )
          }
          return (
            <span
              key={sentence.index}
              className={`voice-sentence is-${state}`}
              data-testid="voice-sentence"
              data-state={state}
            >
              {sentence.text}{' '}
            </span>
          )
        })}
        {answer.status === 'streaming' && <span className="voice-cursor" aria-hidden="true" />}
      </div>
      {note && (
        <p
          className={`voice-answer-note${answer.status === 'error' ? ' is-error' : ''}`}
          data-testid="answer-note"
        >
          {note}
        </p>
      )}
    </section>
  )
}

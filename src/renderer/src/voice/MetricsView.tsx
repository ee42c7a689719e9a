import type { TimelineEvent, TimelineName } from './voiceSession'

const LABELS: Record<TimelineName, string> = {
  'speech-end': 'End of your speech',
  transcript: 'Transcript',
  'first-token': 'First word of the answer',
  'first-sentence': 'First sentence ready',
  'first-audio': 'First audio',
  'last-token': 'Answer complete',
  'playback-end': 'Done speaking',
  'barge-in': 'You interrupted',
  stopped: 'Stopped',
}

const ms = (value: number) => (value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${Math.round(value)} ms`)

/** Voice-to-voice latency of the last exchange, and every step of it in the order it happened. */
export function MetricsView({ timeline }: { timeline: TimelineEvent[] }) {
  const at = (name: TimelineName) => timeline.find((e) => e.name === name)?.atMs
  const summary: Array<[string, number | undefined]> = [
    ['Transcript', at('transcript')],
    ['First token', at('first-token')],
    ['First sentence', at('first-sentence')],
    ['First audio (voice to voice)', at('first-audio')],
  ]
  return (
    <div className="voice-metrics">
      <dl className="voice-latency">
        {summary.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value === undefined ? '—' : ms(value)}</dd>
          </div>
        ))}
      </dl>
      <ol className="voice-timeline" data-testid="voice-timeline" aria-label="Timeline of the last exchange">
        {timeline.map((event) => (
          <li key={`${event.name}-${event.atMs}`} data-event={event.name}>
            <span>{LABELS[event.name]}</span>
            <span className="muted">{ms(event.atMs)}</span>
          </li>
        ))}
      </ol>
    </div>
  )
}

import { useEffect, useRef } from 'react'
import { Markdown } from '../components/Markdown'
import type { PassageRef } from '../workspace/workspaceNav'
import { usePassage } from './knowledgeApi'

/** The converted Markdown around a cited passage, the passage marked and scrolled into view. */
export function PassagePreview({ passage, onClose }: { passage: PassageRef; onClose: () => void }) {
  const marked = useRef<HTMLElement>(null)
  const preview = usePassage(passage)
  useEffect(() => {
    if (preview.data) marked.current?.scrollIntoView({ block: 'center' })
  }, [preview.data])
  return (
    <section className="passage-preview" aria-label={`Passage of ${passage.path}`}>
      <header>
        <strong>{passage.path}</strong>
        <span className="muted">{passage.location}</span>
        <button type="button" className="button secondary small" onClick={onClose}>
          Close
        </button>
      </header>
      {preview.isError && (
        <p className="banner banner-error" role="alert">
          The passage could not be shown: {preview.error.message}
        </p>
      )}
      {preview.data && (
        // The document as it reads (Markdown rendered), the cited passage set apart by a quiet band.
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be focusable
        <section className="passage-text" tabIndex={0} aria-label="Text around the passage">
          {preview.data.before.trim() && (
            <div className="passage-context">
              <Markdown text={preview.data.before} />
            </div>
          )}
          <section
            ref={marked}
            className="passage-cited"
            aria-label="Cited passage"
            data-testid="cited-passage"
          >
            <Markdown text={preview.data.passage} />
          </section>
          {preview.data.after.trim() && (
            <div className="passage-context">
              <Markdown text={preview.data.after} />
            </div>
          )}
        </section>
      )}
    </section>
  )
}

import { useEffect, useRef } from 'react'
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
        <div className="passage-text">
          {preview.data.before}
          <mark ref={marked} data-testid="cited-passage">
            {preview.data.passage}
          </mark>
          {preview.data.after}
        </div>
      )}
    </section>
  )
}

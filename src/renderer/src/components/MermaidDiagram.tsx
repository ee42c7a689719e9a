import { useEffect, useId, useRef, useState } from 'react'
import { CodeBlock } from './CodeBlock'

type State = { kind: 'loading' } | { kind: 'svg'; svg: string } | { kind: 'error'; message: string }

function currentTheme(): 'dark' | 'default' {
  const forced = document.documentElement.dataset.theme
  if (forced) return forced === 'dark' ? 'dark' : 'default'
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'default'
}

/** A Mermaid diagram; mermaid (large) is imported only when the first diagram appears. */
export function MermaidDiagram({ code }: { code: string }) {
  const [state, setState] = useState<State>({ kind: 'loading' })
  // Fitted to the column by default; "Actual size" keeps the drawing readable on a narrow window (it scrolls).
  const [actual, setActual] = useState(false)
  const drawing = useRef<HTMLDivElement>(null)
  // Mermaid gives the SVG its natural width as an inline max-width; at actual size that is its width too.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a redrawn diagram (new code) is a new SVG to size
  useEffect(() => {
    const svg = drawing.current?.querySelector('svg')
    if (svg) svg.style.minWidth = actual ? svg.style.maxWidth : ''
  }, [actual, state])
  const id = `mermaid-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`

  useEffect(() => {
    let live = true
    ;(async () => {
      const { default: mermaid } = await import('mermaid')
      mermaid.initialize({ startOnLoad: false, securityLevel: 'strict', theme: currentTheme() })
      const { svg } = await mermaid.render(id, code)
      if (live) setState({ kind: 'svg', svg })
    })().catch((error: unknown) => {
      document.getElementById(`d${id}`)?.remove()
      if (live) setState({ kind: 'error', message: error instanceof Error ? error.message : String(error) })
    })
    return () => {
      live = false
    }
  }, [code, id])

  if (state.kind === 'error')
    return (
      <div className="mermaid-error">
        <p className="muted">The diagram could not be drawn: {state.message.split('\n')[0]}</p>
        <CodeBlock code={code} language="mermaid" />
      </div>
    )
  if (state.kind === 'loading')
    return (
      <div className="mermaid" aria-busy="true">
        <span className="muted">Drawing diagram…</span>
      </div>
    )
  return (
    <div className="mermaid-figure">
      <div className="mermaid-tools">
        <button
          type="button"
          className="ghost-button"
          aria-pressed={actual}
          onClick={() => setActual((value) => !value)}
        >
          {actual ? 'Fit to width' : 'Actual size'}
        </button>
      </div>
      <div className={actual ? 'mermaid actual' : 'mermaid'} tabIndex={actual ? 0 : undefined}>
        <div
          ref={drawing}
          role="img"
          aria-label="Diagram"
          // biome-ignore lint/security/noDangerouslySetInnerHtml: mermaid's strict security level sanitizes the SVG
          dangerouslySetInnerHTML={{ __html: state.svg }}
        />
      </div>
    </div>
  )
}

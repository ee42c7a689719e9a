import { useEffect, useId, useState } from 'react'
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
    <div
      className="mermaid"
      role="img"
      aria-label="Diagram"
      // biome-ignore lint/security/noDangerouslySetInnerHtml: mermaid's strict security level sanitizes the SVG
      dangerouslySetInnerHTML={{ __html: state.svg }}
    />
  )
}

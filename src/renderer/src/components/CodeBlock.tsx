import { useEffect, useState } from 'react'
import { Icon } from './Icon'
import { useCopy } from './useCopy'

/** A fenced code block: plain at once, highlighted when the lazily loaded highlighter arrives; with Copy. */
export function CodeBlock({ code, language }: { code: string; language: string | undefined }) {
  const [html, setHtml] = useState<string | undefined>(undefined)
  const { copied, copy } = useCopy()

  useEffect(() => {
    let live = true
    if (!language) return
    import('./highlightCode')
      .then(({ highlightCode }) => {
        if (live) setHtml(highlightCode(code, language))
      })
      .catch(() => {})
    return () => {
      live = false
    }
  }, [code, language])

  return (
    <div className="code-block">
      <div className="code-header">
        <span className="code-language">{language ?? 'text'}</span>
        <button type="button" className="code-copy" onClick={() => copy(code)} aria-label="Copy code">
          <Icon name={copied ? 'check' : 'copy'} size={14} />
          <span>{copied ? 'Copied' : 'Copy'}</span>
        </button>
      </div>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable block must be reachable by keyboard */}
      <pre tabIndex={0}>
        {html === undefined ? (
          <code>{code}</code>
        ) : (
          // biome-ignore lint/security/noDangerouslySetInnerHtml: highlight.js output escapes the code it wraps
          <code className="hljs" dangerouslySetInnerHTML={{ __html: html }} />
        )}
      </pre>
    </div>
  )
}

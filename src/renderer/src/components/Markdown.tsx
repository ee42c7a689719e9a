import './components.css'
import 'katex/dist/katex.min.css'
import { lazy, memo, Suspense } from 'react'
import ReactMarkdown, { type Components } from 'react-markdown'
import rehypeKatex from 'rehype-katex'
import remarkGfm from 'remark-gfm'
import remarkMath from 'remark-math'
import { CodeBlock } from './CodeBlock'
import { prepareMath } from './mathText'

const MermaidDiagram = lazy(() => import('./MermaidDiagram').then((m) => ({ default: m.MermaidDiagram })))

interface HastText {
  type: 'text'
  value: string
}
interface HastElement {
  type: 'element'
  tagName: string
  properties?: { className?: unknown }
  children?: Array<HastElement | HastText>
}

function textOf(node: HastElement | HastText): string {
  return node.type === 'text' ? node.value : (node.children ?? []).map(textOf).join('')
}

function languageOf(code: HastElement): string | undefined {
  const classes = code.properties?.className
  const list = Array.isArray(classes) ? classes : []
  const found = list.find((c): c is string => typeof c === 'string' && c.startsWith('language-'))
  return found?.slice('language-'.length).toLowerCase()
}

function makeComponents(streaming: boolean): Components {
  return {
    pre({ node }) {
      const code = (node as HastElement | undefined)?.children?.find(
        (c): c is HastElement => c.type === 'element' && c.tagName === 'code',
      )
      if (!code) return null
      const text = textOf(code).replace(/\n$/, '')
      const language = languageOf(code)
      // An unfinished diagram would only flash errors while it streams.
      if (language === 'mermaid' && !streaming)
        return (
          <Suspense fallback={<div className="mermaid muted">Drawing diagram…</div>}>
            <MermaidDiagram code={text} />
          </Suspense>
        )
      return <CodeBlock code={text} language={language} />
    },
    a({ href, children }) {
      // A citation [n]: moves to its source under the answer (whose button opens the passage).
      if (href?.startsWith('#source-'))
        return (
          <a
            href={href}
            className="citation"
            onClick={(event) => {
              event.preventDefault()
              const target = document.getElementById(href.slice(1))
              target?.scrollIntoView({ block: 'nearest' })
              ;(target?.closest('button') ?? target)?.focus()
            }}
          >
            {children}
          </a>
        )
      return (
        <a href={href} target="_blank" rel="noopener noreferrer">
          {children}
        </a>
      )
    },
    table({ children }) {
      return (
        // A table wider than a narrow window scrolls sideways: reachable by keyboard (arrow keys scroll it).
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be focusable
        <div className="table-scroll" tabIndex={0}>
          <table>{children}</table>
        </div>
      )
    },
  }
}

const staticComponents = makeComponents(false)
const streamingComponents = makeComponents(true)
const remarkPlugins = [remarkGfm, remarkMath]
// KaTeX builds its own markup from the TeX (no raw HTML passes: react-markdown has no rehype-raw);
// `trust: false` refuses \href, \url, \htmlClass and the like; errors render as red source text.
const rehypePlugins: Parameters<typeof ReactMarkdown>[0]['rehypePlugins'] = [
  [rehypeKatex, { throwOnError: false, trust: false, strict: 'ignore', maxSize: 20, maxExpand: 200 }],
]

/** Markdown with GFM (tables, task lists, strikethrough, autolinks), LaTeX math (KaTeX), highlighted code and Mermaid diagrams. */
export const Markdown = memo(function Markdown({
  text,
  streaming = false,
}: {
  text: string
  streaming?: boolean
}) {
  return (
    <div className="markdown">
      <ReactMarkdown
        remarkPlugins={remarkPlugins}
        rehypePlugins={rehypePlugins}
        components={streaming ? streamingComponents : staticComponents}
      >
        {prepareMath(text)}
      </ReactMarkdown>
    </div>
  )
})

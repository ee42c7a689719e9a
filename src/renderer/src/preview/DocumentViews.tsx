import { useVirtualizer } from '@tanstack/react-virtual'
import { useEffect, useMemo, useRef, useState } from 'react'
import type { PreviewDescription } from '../../../shared/ipc'
import { CodeBlock } from '../components/CodeBlock'
import { formatBytes } from '../components/formatBytes'
import { Markdown } from '../components/Markdown'
import { usePdfPage, usePreviewBytes } from './previewApi'
import { safeHtmlDocument } from './safeHtml'

type Of<K extends PreviewDescription['kind']> = Extract<PreviewDescription, { kind: K }>

/** Text larger than this is shown plain: highlighting it would hold up the page. */
const MAX_HIGHLIGHTED = 200_000
const PAGE_WIDTH = 900
const PAGE_GAP = 12

function useObjectUrl(bytes: Uint8Array | undefined, type: string): string | undefined {
  const url = useMemo(
    () => (bytes ? URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>], { type })) : undefined),
    [bytes, type],
  )
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url])
  return url
}

function PdfPage({ description, page, width }: { description: Of<'pdf'>; page: number; width: number }) {
  const image = usePdfPage(description.path, description.version, page, width)
  const url = useObjectUrl(image.data?.bytes, 'image/jpeg')
  if (image.isError)
    return (
      <p className="banner banner-error" role="alert">
        Page {page} could not be drawn: {image.error.message}
      </p>
    )
  return url ? (
    <img
      src={url}
      alt={`Page ${page} of ${description.name}`}
      className="pdf-page"
      width={image.data?.width}
      height={image.data?.height}
    />
  ) : (
    <div className="pdf-page loading" role="status">
      Drawing page {page}…
    </div>
  )
}

/** PDF pages drawn by PDFium in the main process, fetched as they scroll into view. */
export function PdfView({ description }: { description: Of<'pdf'> }) {
  const scrollRef = useRef<HTMLDivElement>(null)
  const [width, setWidth] = useState(0)
  useEffect(() => {
    const element = scrollRef.current
    if (!element) return
    const observer = new ResizeObserver(() =>
      setWidth(Math.max(200, Math.min(PAGE_WIDTH, element.clientWidth - 24))),
    )
    observer.observe(element)
    return () => observer.disconnect()
  }, [])
  // Drawn at a width in steps of 100 px so a resize does not redraw every page.
  const drawWidth = Math.max(200, Math.ceil(width / 100) * 100)
  const virtualizer = useVirtualizer({
    count: description.pages,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => Math.round(width * 1.3) + PAGE_GAP,
    overscan: 1,
  })
  return (
    <div
      ref={scrollRef}
      className="pdf-scroll"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard
      tabIndex={0}
      aria-label={`${description.name}, ${description.pages} pages`}
      role="document"
    >
      {width > 0 && (
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => (
            <div
              key={item.key}
              data-index={item.index}
              ref={virtualizer.measureElement}
              className="pdf-page-slot"
              style={{
                position: 'absolute',
                top: 0,
                left: 0,
                right: 0,
                transform: `translateY(${item.start}px)`,
              }}
            >
              <PdfPage description={description} page={item.index + 1} width={drawWidth} />
            </div>
          ))}
        </div>
      )}
    </div>
  )
}

export function ImageView({ description }: { description: Of<'image'> }) {
  const bytes = usePreviewBytes(description.path, description.version)
  const url = useObjectUrl(bytes.data?.bytes, description.mimeType)
  if (bytes.isError)
    return (
      <p className="banner banner-error" role="alert">
        {bytes.error.message}
      </p>
    )
  // An <img> never runs the scripts an SVG may hold, and fetches nothing the SVG names.
  return <div className="image-view">{url && <img src={url} alt={description.name} />}</div>
}

export function TextView({ description }: { description: Of<'text'> }) {
  return (
    <div className="text-view">
      {description.truncated && (
        <p className="banner" role="note">
          The file is long; the preview shows its first {description.text.length.toLocaleString()} characters.
        </p>
      )}
      {description.language === 'markdown' ? (
        <Markdown text={description.text} />
      ) : description.text.length <= MAX_HIGHLIGHTED && description.language !== 'plaintext' ? (
        <CodeBlock code={description.text} language={description.language} />
      ) : (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling block must be reachable by keyboard
        <pre className="plain-text" tabIndex={0}>
          {description.text}
        </pre>
      )}
    </div>
  )
}

/** Untrusted HTML (a Word document, a web page, a mail): sanitised, in a frame that runs no script and fetches nothing. */
export function HtmlFrame({ html, title }: { html: string; title: string }) {
  const safe = useMemo(() => safeHtmlDocument(html), [html])
  return (
    <>
      {safe.blockedRemote > 0 && (
        <p className="banner" role="note">
          {safe.blockedRemote} remote {safe.blockedRemote === 1 ? 'resource was' : 'resources were'} blocked:
          the preview fetches nothing from the internet.
        </p>
      )}
      <iframe
        className="html-frame"
        title={title}
        sandbox=""
        srcDoc={safe.document}
        referrerPolicy="no-referrer"
      />
    </>
  )
}

export function HtmlView({ description }: { description: Of<'html'> }) {
  return (
    <div className="html-view">
      {description.warnings.length > 0 && (
        <details className="muted small-note">
          <summary>{description.warnings.length} conversion notes</summary>
          <ul>
            {description.warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </details>
      )}
      <HtmlFrame html={description.html} title={`Content of ${description.name}`} />
    </div>
  )
}

export function EmailView({ description }: { description: Of<'email'> }) {
  return (
    <article
      className="email-view"
      aria-label={`Mail: ${description.headers.find((h) => h.label === 'Subject')?.value ?? description.name}`}
    >
      <dl className="email-headers">
        {description.headers.map((h) => (
          <div key={h.label}>
            <dt>{h.label}</dt>
            <dd>{h.value}</dd>
          </div>
        ))}
      </dl>
      {description.attachments.length > 0 && (
        <ul className="email-attachments" aria-label="Mail attachments">
          {description.attachments.map((a, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: attachments may share names
            <li key={i}>
              {a.name}{' '}
              <span className="muted">
                ({formatBytes(a.size)}, {a.mimeType})
              </span>
            </li>
          ))}
        </ul>
      )}
      {description.html ? (
        <HtmlFrame html={description.html} title="Mail body" />
      ) : (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling block must be reachable by keyboard
        <pre className="plain-text" tabIndex={0}>
          {description.text}
        </pre>
      )}
    </article>
  )
}

export function CalendarView({ description }: { description: Of<'calendar'> }) {
  if (description.events.length === 0)
    return <p className="muted">The calendar has no events in the ten years around today.</p>
  return (
    <ol className="calendar-view" aria-label={`Events in ${description.name}`}>
      {description.events.map((e, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: occurrences of one event share their summary
        <li key={i} className="event">
          <strong>{e.summary || '(no title)'}</strong>
          <span>
            {e.allDay
              ? `${e.start} (all day)`
              : `${e.start.replace('T', ' ')}${e.end ? ` – ${e.end.replace('T', ' ')}` : ''}`}
          </span>
          {e.location && <span className="muted">{e.location}</span>}
          {e.description && <p>{e.description}</p>}
        </li>
      ))}
    </ol>
  )
}

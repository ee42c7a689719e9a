import './components.css'
import type { ReactNode } from 'react'
import { usePreview } from '../preview/previewStore'
import { FileBadge } from './FileBadge'
import { formatBytes } from './formatBytes'
import { Icon } from './Icon'

/**
 * `ready`: chosen in the composer and read by the pre-send check; `unchecked`: chosen, the host could
 * not be asked, read on Send. The others follow the contract's AttachmentStatus.
 */
export type ChipStatus = 'ready' | 'unchecked' | 'pending' | 'converting' | 'converted' | 'failed'

export interface AttachmentChipProps {
  name: string
  size: number
  status: ChipStatus
  error?: string | undefined
  /** Characters given to the model and whether the budget cut them. */
  chars?: number | undefined
  truncated?: boolean | undefined
  /** What the converter could not read faithfully (e.g. a picture read by OCR instead of the vision model). */
  warnings?: readonly string[] | undefined
  onRemove?: (() => void) | undefined
  /** Where the attachment was saved in the workspace: the chip offers to preview it. */
  previewPath?: string | undefined
}

function statusText({ status, error, chars, truncated }: AttachmentChipProps): string {
  switch (status) {
    case 'ready':
      return 'Ready'
    case 'unchecked':
      return 'Read on Send'
    case 'pending':
      return 'Waiting'
    case 'converting':
      return 'Reading…'
    case 'converted':
      if (chars === undefined) return 'Read'
      return truncated ? `${chars.toLocaleString()} chars, cut to fit` : `${chars.toLocaleString()} chars`
    case 'failed':
      return error ?? 'Could not be read'
  }
}

/** One attachment: type icon, name, size, conversion status or error reason, and remove. */
export function AttachmentChip(props: AttachmentChipProps) {
  const { name, size, status, onRemove, previewPath } = props
  const text = statusText(props)
  const openPreview = usePreview((s) => s.open)
  return (
    <li className={`chip chip-${status}`} data-testid="attachment-chip" data-status={status}>
      <FileBadge name={name} />
      <span className="chip-body">
        <span className="chip-name" title={name}>
          {name}
        </span>
        <span
          className="chip-meta"
          title={status === 'failed' ? formatBytes(size) : `${formatBytes(size)} · ${text}`}
        >
          <span>{formatBytes(size)}</span>
          {status !== 'failed' && (
            <>
              <span aria-hidden="true"> · </span>
              {/* A status region: screen readers hear Reading… turn into Ready. */}
              <span className="chip-status" role="status">
                <span className="visually-hidden">{name}: </span>
                {status === 'converting' && <Icon name="spinner" size={12} />}
                {text}
              </span>
            </>
          )}
        </span>
        {(status === 'converted' || status === 'ready') &&
          props.warnings?.map((warning) => (
            <span key={warning} className="chip-warning">
              <Icon name="alert" size={12} />
              {/* The icon and colour say "warning" only to the eye. */}
              <span className="visually-hidden">Warning: </span>
              {warning}
            </span>
          ))}
        {status === 'failed' && (
          <span className="chip-error" role="alert">
            <Icon name="alert" size={12} />
            {text}
          </span>
        )}
      </span>
      {previewPath && (
        <button
          type="button"
          className="icon-button chip-preview"
          aria-label={`Preview ${name}`}
          onClick={() => openPreview(previewPath)}
        >
          <Icon name="eye" size={14} />
        </button>
      )}
      {onRemove && (
        <button
          type="button"
          className="icon-button chip-remove"
          aria-label={`Remove ${name}`}
          onClick={onRemove}
        >
          <Icon name="close" size={14} />
        </button>
      )}
    </li>
  )
}

export function AttachmentChipList({ label, children }: { label: string; children: ReactNode }) {
  return (
    <ul className="chip-list" aria-label={label}>
      {children}
    </ul>
  )
}

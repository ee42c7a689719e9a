import { type DragEvent, type ReactNode, useRef, useState } from 'react'
import { Icon } from '../../components/Icon'

const hasFiles = (event: DragEvent) => Array.from(event.dataTransfer?.types ?? []).includes('Files')

/** Accepts files dropped anywhere inside it and shows a drop target while files are dragged over. */
export function DropZone({ onFiles, children }: { onFiles(files: File[]): void; children: ReactNode }) {
  const [active, setActive] = useState(false)
  const depth = useRef(0)

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a drop target only; keyboard users attach with the Attach button
    <div
      className="drop-area"
      data-testid="drop-area"
      onDragEnter={(event) => {
        if (!hasFiles(event)) return
        event.preventDefault()
        depth.current++
        setActive(true)
      }}
      onDragOver={(event) => {
        if (!hasFiles(event)) return
        event.preventDefault()
        event.dataTransfer.dropEffect = 'copy'
      }}
      onDragLeave={() => {
        depth.current = Math.max(0, depth.current - 1)
        if (depth.current === 0) setActive(false)
      }}
      onDrop={(event) => {
        if (!hasFiles(event)) return
        event.preventDefault()
        depth.current = 0
        setActive(false)
        onFiles(Array.from(event.dataTransfer.files))
      }}
    >
      {children}
      {active && (
        <div className="drop-overlay" data-testid="drop-overlay">
          <div className="drop-target">
            <Icon name="paperclip" size={32} />
            <strong>Drop files to attach</strong>
            <span>Word, Excel, PowerPoint, PDF, images, text — up to 20 files</span>
          </div>
        </div>
      )}
    </div>
  )
}

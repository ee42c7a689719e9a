import type { SVGProps } from 'react'

const paths = {
  send: 'M3 11.5 21 3l-8.5 18-2.2-7.3L3 11.5Z',
  stop: 'M7 7h10v10H7z',
  paperclip:
    'M16.5 6.5 8 15a2.5 2.5 0 0 0 3.5 3.5l8.5-8.5a4.5 4.5 0 0 0-6.4-6.4L5 12.2a6.5 6.5 0 0 0 9.2 9.2L20 15.6',
  close: 'M6 6l12 12M18 6 6 18',
  plus: 'M12 5v14M5 12h14',
  search: 'M11 4a7 7 0 1 0 0 14 7 7 0 0 0 0-14Zm9 16-4-4',
  pencil: 'M4 20h4L19 9l-4-4L4 16v4Zm9-13 4 4',
  trash: 'M5 7h14M10 7V4h4v3m-7 0 1 13h8l1-13',
  copy: 'M9 9h10v11H9zM5 15V4h10',
  check: 'M5 12.5 10 17l9-10',
  chevron: 'm9 6 6 6-6 6',
  file: 'M6 3h8l4 4v14H6V3Zm8 0v4h4',
  eye: 'M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12Zm10-3a3 3 0 1 0 0 6 3 3 0 0 0 0-6Z',
  folder: 'M3 6h7l2 2h9v11H3V6Z',
  download: 'M12 4v11m-5-5 5 5 5-5M5 20h14',
  upload: 'M12 16V4M7 9l5-5 5 5M5 20h14',
  open: 'M14 4h6v6m0-6-9 9M19 14v6H4V5h6',
  alert: 'M12 3 2 21h20L12 3Zm0 7v5m0 3v.5',
  spinner: 'M12 3a9 9 0 1 0 9 9',
  tool: 'M14.7 6.3a4 4 0 0 0-5.4 5.1L3 17.7 6.3 21l6.3-6.3a4 4 0 0 0 5.1-5.4l-2.6 2.6-2.8-.4-.4-2.8 2.8-2.4Z',
  question: 'M9.5 9a2.5 2.5 0 1 1 3.5 2.3c-.7.3-1 .9-1 1.7v.5m0 3v.5M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18Z',
  chat: 'M4 5h16v11H9l-5 4V5Z',
  up: 'M12 19V5m-6 6 6-6 6 6',
  refresh: 'M20 12a8 8 0 1 1-2.3-5.7M20 4v5h-5',
  mic: 'M12 3a3 3 0 0 0-3 3v6a3 3 0 0 0 6 0V6a3 3 0 0 0-3-3Zm-7 9a7 7 0 0 0 14 0m-7 7v3',
  settings:
    'M12 9a3 3 0 1 0 0 6 3 3 0 0 0 0-6Zm0-6 1.5 2.6 3-.4.9 2.9 2.6 1.5-1.2 2.4 1.2 2.4-2.6 1.5-.9 2.9-3-.4L12 21l-1.5-2.6-3 .4-.9-2.9L4 14.4 5.2 12 4 9.6l2.6-1.5.9-2.9 3 .4L12 3Z',
  info: 'M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18Zm0 8v6m0-9.5V8',
  menu: 'M4 6h16M4 12h16M4 18h16',
  pin: 'M9 4h6l-1 6 4 4H6l4-4-1-6Zm3 10v6',
  play: 'M8 5v14l11-7L8 5Z',
  back: 'm15 6-6 6 6 6',
} as const

export type IconName = keyof typeof paths

/** A stroke icon; decorative unless a `title` is given. */
export function Icon({
  name,
  size = 16,
  title,
  ...rest
}: { name: IconName; size?: number; title?: string } & SVGProps<SVGSVGElement>) {
  return (
    // biome-ignore lint/a11y/noSvgWithoutTitle: decorative (aria-hidden) unless a title is given, then it has one
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden={title ? undefined : true}
      role={title ? 'img' : undefined}
      className={name === 'spinner' ? 'icon spin' : 'icon'}
      {...rest}
    >
      {title && <title>{title}</title>}
      <path d={paths[name]} />
    </svg>
  )
}

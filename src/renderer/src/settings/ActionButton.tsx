import type { ReactNode } from 'react'
import { Icon, type IconName } from '../components/Icon'

/**
 * A section's action that works on the saved settings (Test connection, Start Edge for Bureau):
 * a spinner while it runs, and disabled until unsaved changes are saved.
 */
export function ActionButton({
  icon,
  pending,
  needsSave,
  onClick,
  children,
}: {
  icon: IconName
  pending: boolean
  needsSave: boolean
  onClick(): void
  children: ReactNode
}) {
  return (
    <button
      type="button"
      className="button secondary"
      onClick={onClick}
      disabled={needsSave || pending}
      title={needsSave ? 'Save the changes first' : undefined}
    >
      <Icon name={pending ? 'spinner' : icon} size={14} />
      {children}
    </button>
  )
}

import { useEffect } from 'react'
import { useSettings } from '../settings/useSettings'

/** Applies the theme setting: `system` follows the OS, `light`/`dark` force one through [data-theme]. */
export function useThemeSetting(): void {
  const theme = useSettings().data?.ui.theme
  useEffect(() => {
    const root = document.documentElement
    if (theme === 'light' || theme === 'dark') root.dataset.theme = theme
    else delete root.dataset.theme
  }, [theme])
}

import './components.css'
import { useNavigation } from '../app/navigationStore'
import { adviceFor } from '../chat/messages/problemAdvice'
import { useSettingsFocus } from '../settings/settingsFocus'
import { Icon } from './Icon'

/** An error that says what happened and offers the one button that helps. */
export function ProblemBanner({
  problem,
  onDismiss,
}: {
  problem: { code?: string | undefined; message: string }
  onDismiss?: (() => void) | undefined
}) {
  const advice = adviceFor(problem)
  const go = useNavigation((s) => s.go)
  const request = useSettingsFocus((s) => s.request)
  const act = () => {
    request(advice.action?.kind === 'reenter-key' ? 'apiKey' : 'provider')
    go('settings')
  }
  return (
    <div className="banner banner-error" role="alert">
      <Icon name="alert" size={18} />
      <div className="banner-body">
        <div className="banner-text">
          <strong>{advice.title}</strong>
          <span>{problem.message}</span>
        </div>
        {advice.action && (
          <button type="button" className="button small" onClick={act}>
            {advice.action.label}
          </button>
        )}
      </div>
      {onDismiss && (
        <button type="button" className="icon-button" aria-label="Dismiss" onClick={onDismiss}>
          <Icon name="close" size={16} />
        </button>
      )}
    </div>
  )
}

export { default } from '../settings/SettingsPage'

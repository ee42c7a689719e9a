export { default } from '../automations/AutomationsPage'

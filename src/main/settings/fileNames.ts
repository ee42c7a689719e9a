/** settings.json in the data folder (the backends add `.json`). */
export const SETTINGS_FILE_NAME = 'settings'

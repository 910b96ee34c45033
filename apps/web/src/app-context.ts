import { createContext } from 'preact'
import { useContext } from 'preact/hooks'
import type { Translate } from './i18n.ts'
import type { Settings } from './settings.ts'

export interface AppContextValue {
  t: Translate
  settings: Settings
  updateSettings: (change: Partial<Settings>) => void
}

export const AppContext = createContext<AppContextValue | null>(null)

export function useApp(): AppContextValue {
  const value = useContext(AppContext)
  if (!value) throw new Error('useApp outside <AppContext.Provider>')
  return value
}

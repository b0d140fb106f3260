import { create } from 'zustand';

/** Open state of the theme drawer, shared by the header button, the drawer and the home page's shortcut. */
export const useThemeDrawer = create<{ open: boolean; show: () => void; hide: () => void }>()((set) => ({
  open: false,
  show: () => set({ open: true }),
  hide: () => set({ open: false }),
}));

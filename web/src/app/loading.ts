import { create } from 'zustand';

/**
 * The counted global loading overlay: every request that shows the overlay adds
 * one and removes one when it ends, so the overlay closes only when all of them have ended.
 */
interface LoadingState {
  pending: number;
}

export const useLoadingStore = create<LoadingState>()(() => ({ pending: 0 }));

export function beginLoading() {
  useLoadingStore.setState((s) => ({ pending: s.pending + 1 }));
}

export function endLoading() {
  useLoadingStore.setState((s) => ({ pending: Math.max(0, s.pending - 1) }));
}

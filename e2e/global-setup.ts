import { buildWebIfNeeded } from './harness.ts';

/** Runs once before all spec files: the server serves the built web app, so build it first. */
export default function setup(): void {
  buildWebIfNeeded();
}

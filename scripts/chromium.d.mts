export const CHROMIUM_PATH: string;
export const CHROMIUM_ARGS: string[];
export const INSTALL_HINT: string;
export function chromiumMissing(): boolean;

/** A Japanese font of Debian's fonts-ipafont-gothic (install-browser.sh installs it): what test documents are set in. */
export const JAPANESE_FONT = '/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf'

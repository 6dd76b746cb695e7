// The Playback adapter: see README.md, "How the code is laid out".
import ShuffleCore

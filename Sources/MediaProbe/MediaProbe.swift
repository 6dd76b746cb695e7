// MediaProbe: reads tags and stream shape from untrusted bytes, in pure Swift (fuzzed).
import ShuffleCore

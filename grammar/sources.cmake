# grammar: sources of this stage are appended to KTC_SOURCES here.

# The smallest useful broker: the remote tier on a local directory, remote log metadata in the
# __remote_log_metadata topic (the default, as in Kafka) or in memory.
local
inmemory
topic

# The smallest useful broker: the remote tier on a local directory, remote log metadata in memory.
local
inmemory

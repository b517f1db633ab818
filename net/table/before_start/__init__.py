"""The table before its game starts: what each role does first (`opening`: the host's
first lobby and join code, a join, a watch, a resume), the seats and settings a host
changes (`lobby`), and the lobby and start as typed records for the window
(`lobby_record`). `net.table.session` composes them with the other parts."""

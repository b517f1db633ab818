"""Who may do what at a table: admission, the guess limit, seat keys, signatures, and expelling a cheater."""

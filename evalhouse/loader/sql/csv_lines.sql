read_csv(@path@, columns = {'line': 'VARCHAR'}, delim = chr(0), quote = '', escape = '', header = false, auto_detect = false, new_line = '\n', max_line_size = 2147483647)

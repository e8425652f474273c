print("rhr")

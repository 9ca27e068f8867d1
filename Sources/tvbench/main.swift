print("tvbench")

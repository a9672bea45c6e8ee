print("failing: start")
VALUE = {}["missing"]
